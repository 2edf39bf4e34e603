import { dialog } from 'electron';
import type { BrowserWindow } from 'electron';

/** The native picker behind 'model.chooseFile': one .gguf file, or null when the user cancels. */
export async function chooseModelFile(parent: BrowserWindow | null): Promise<string | null> {
  const options = {
    title: 'Open a GGUF model',
    buttonLabel: 'Open model',
    filters: [{ name: 'GGUF models', extensions: ['gguf'] }],
    properties: ['openFile' as const],
  };
  const result =
    parent !== null && !parent.isDestroyed()
      ? await dialog.showOpenDialog(parent, options)
      : await dialog.showOpenDialog(options);
  if (result.canceled) return null;
  return result.filePaths[0] ?? null;
}
