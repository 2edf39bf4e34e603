import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appPaths } from './appPaths.js';
import { mainWindowWebPreferences } from './mainWindowPreferences.js';

const APP_ROOT = path.resolve('/opt/Homebody/resources/app.asar');
const { preloadPath } = appPaths(APP_ROOT);

describe('mainWindowWebPreferences', () => {
  it('isolates and sandboxes the page, with no Node anywhere', () => {
    const prefs = mainWindowWebPreferences(preloadPath, false);
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.sandbox).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
  });

  it('keeps the web platform strict: same-origin policy, no insecure content, no experiments, no webview', () => {
    const prefs = mainWindowWebPreferences(preloadPath, false);
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.experimentalFeatures).toBe(false);
    expect(prefs.webviewTag).toBe(false);
    expect(prefs.enableWebSQL).toBe(false);
    expect(prefs.safeDialogs).toBe(true);
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
  });

  it('turns off middle-click windows, drag-and-drop navigation and the spellchecker download', () => {
    const prefs = mainWindowWebPreferences(preloadPath, false);
    expect(prefs.disableBlinkFeatures?.split(',')).toContain('Auxclick');
    expect(prefs.navigateOnDragDrop).toBe(false);
    expect(prefs.spellcheck).toBe(false);
  });

  it('gives devtools only when asked', () => {
    expect(mainWindowWebPreferences(preloadPath, false).devTools).toBe(false);
    expect(mainWindowWebPreferences(preloadPath, true).devTools).toBe(true);
  });

  it('loads the preload by an absolute path inside the app, and refuses a relative one', () => {
    const prefs = mainWindowWebPreferences(preloadPath, false);
    expect(prefs.preload).toBe(preloadPath);
    expect(path.isAbsolute(prefs.preload ?? '')).toBe(true);
    expect(path.relative(APP_ROOT, prefs.preload ?? '').startsWith('..')).toBe(false);
    expect(() => mainWindowWebPreferences(path.join('build', 'preload', 'preload.cjs'), false)).toThrow(/absolute/);
  });

  it('sets nothing that was not reviewed', () => {
    // A new key is a security decision: add it here, with its test above, on purpose.
    expect(Object.keys(mainWindowWebPreferences(preloadPath, false)).sort()).toEqual(
      [
        'allowRunningInsecureContent',
        'contextIsolation',
        'devTools',
        'disableBlinkFeatures',
        'enableWebSQL',
        'experimentalFeatures',
        'navigateOnDragDrop',
        'nodeIntegration',
        'nodeIntegrationInSubFrames',
        'nodeIntegrationInWorker',
        'preload',
        'safeDialogs',
        'sandbox',
        'spellcheck',
        'webSecurity',
        'webviewTag',
      ].sort(),
    );
  });
});

describe('appPaths', () => {
  it('puts the renderer and the preload below the app root', () => {
    const paths = appPaths(APP_ROOT);
    expect(paths.rendererDir).toBe(path.join(APP_ROOT, 'build', 'renderer'));
    expect(paths.preloadPath).toBe(path.join(APP_ROOT, 'build', 'preload', 'preload.cjs'));
    expect(() => appPaths('relative/root')).toThrow(/absolute/);
  });
});
