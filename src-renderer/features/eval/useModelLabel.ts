import { useCallback } from 'react';
import { useAppStore } from '../../store/StoreContext.js';
import { fileNameOf } from '../../store/evalView.js';

/** A model path as people know it: the library's name for it, else its file name. */
export function useModelLabel(): (path: string) => string {
  const models = useAppStore((s) => s.modelsListing?.models ?? null);
  return useCallback((path: string) => models?.find((m) => m.path === path)?.name ?? fileNameOf(path), [models]);
}
