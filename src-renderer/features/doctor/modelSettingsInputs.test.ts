import { describe, expect, it } from 'vitest';
import { inputsFromSaved, parseInputs } from './modelSettingsInputs.js';

const empty = { contextSize: '', gpuLayers: '', threads: '', temperature: '' };

describe('model settings fields', () => {
  it('leaves empty fields to the defaults and parses the rest', () => {
    expect(parseInputs(empty)).toEqual({ settings: {}, problems: {} });
    expect(parseInputs({ contextSize: ' 2048 ', gpuLayers: 'AUTO', threads: '2', temperature: '0.2' })).toEqual({
      settings: { contextSize: 2048, gpuLayers: 'auto', threads: 2, temperature: 0.2 },
      problems: {},
    });
    expect(parseInputs({ ...empty, gpuLayers: '0' }).settings).toEqual({ gpuLayers: 0 });
  });

  it('says what is wrong with each field, in place', () => {
    const { settings, problems } = parseInputs({ contextSize: '10', gpuLayers: 'max', threads: 'x', temperature: '3' });
    expect(settings).toEqual({});
    expect(Object.keys(problems).sort()).toEqual(['contextSize', 'gpuLayers', 'temperature', 'threads']);
  });

  it('shows saved settings and blanks for the rest', () => {
    expect(inputsFromSaved({ contextSize: 2048, gpuLayers: 'auto' })).toEqual({
      ...empty,
      contextSize: '2048',
      gpuLayers: 'auto',
    });
  });
});
