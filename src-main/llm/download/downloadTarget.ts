import { HomebodyError } from '../../../src-shared/contract/index.js';

export const DEFAULT_HUGGING_FACE_ENDPOINT = 'https://huggingface.co/';

/** Where a model URI is fetched from: the URL the egress guard is asked about, and the file name it suggests. */
export interface DownloadTarget {
  /** The URI as node-llama-cpp's downloader receives it. */
  readonly uri: string;
  /** The http(s) URL the first connection goes to (a Hugging Face resolve URL for `hf:` URIs). */
  readonly url: string;
  /** The file name the URI ends with (sanitized; ends in .gguf). */
  readonly fileName: string;
}

/**
 * The Hugging Face endpoint, as node-llama-cpp resolves it: the given one, else MODEL_ENDPOINT, else HF_ENDPOINT,
 * else huggingface.co. Passed explicitly to the downloader so the egress guard and the download agree.
 */
export function huggingFaceEndpoint(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  const candidate = [explicit, env.MODEL_ENDPOINT, env.HF_ENDPOINT].find((value) => value && isHttpUrl(value));
  const endpoint = candidate ?? DEFAULT_HUGGING_FACE_ENDPOINT;
  return endpoint.endsWith('/') ? endpoint : `${endpoint}/`;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Keeps a file name to letters, digits, dot, dash and underscore, so it is safe on every file system. */
export function safeFileName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '');
  return cleaned.slice(-200) || 'model.gguf';
}

const HF_PREFIXES = ['hf://', 'hf:'];

/**
 * Resolves a model URI: `hf:owner/repo/path/file.gguf[#branch]` (a file in a Hugging Face repository) or an http(s)
 * URL of a .gguf file. Throws INVALID_REQUEST for anything else, with what to write instead.
 */
export function resolveDownloadTarget(uri: string, endpoint: string = huggingFaceEndpoint()): DownloadTarget {
  const prefix = HF_PREFIXES.find((p) => uri.startsWith(p));
  let url: string;
  let lastSegment: string;
  if (prefix) {
    const [body = '', branch = 'main'] = uri.slice(prefix.length).split('#', 2);
    const [owner, repo, ...file] = body.split('/');
    if (!owner || !repo || file.length === 0 || file.some((part) => part === '' || part === '..')) {
      throw new HomebodyError(
        'INVALID_REQUEST',
        `"${uri}" does not name a file. Write hf:owner/repository/file.gguf (a file of a Hugging Face repository).`,
      );
    }
    const encode = (parts: string[]) => parts.map(encodeURIComponent).join('/');
    url = `${endpoint}${encode([owner, repo])}/resolve/${encodeURIComponent(branch)}/${encode(file)}`;
    lastSegment = file[file.length - 1] ?? '';
  } else if (isHttpUrl(uri)) {
    url = uri;
    lastSegment = decodeURIComponent(new URL(uri).pathname.split('/').pop() ?? '');
  } else {
    throw new HomebodyError(
      'INVALID_REQUEST',
      `"${uri.slice(0, 200)}" is not a model address Homebody downloads from: use hf:owner/repository/file.gguf or an https URL of a .gguf file.`,
    );
  }
  if (!/\.gguf$/i.test(lastSegment)) {
    throw new HomebodyError(
      'INVALID_REQUEST',
      `"${uri.slice(0, 200)}" does not end in a .gguf file; Homebody downloads GGUF model files only.`,
    );
  }
  return { uri, url, fileName: safeFileName(lastSegment) };
}
