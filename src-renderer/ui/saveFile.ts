/**
 * Offers text as a file download: a Blob URL behind an <a download>, clicked once. The URL is revoked a
 * little later, once the browser (or Electron's save dialog) has started reading it.
 */
export function saveFile(file: { fileName: string; mimeType: string; content: string }): void {
  const url = URL.createObjectURL(new Blob([file.content], { type: file.mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
