/**
 * A model's `tokenizer.json` in the Hugging Face cache, found without a flag and without the network:
 * `<cache>/models--ORG--NAME/snapshots/<revision>/tokenizer.json`, the revision `refs/main` names,
 * else the newest snapshot that holds one. The cache is `HF_HUB_CACHE`, else `HF_HOME/hub`, else
 * `$XDG_CACHE_HOME/huggingface/hub`, else `~/.cache/huggingface/hub` (huggingface_hub's order).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where to look: the environment (HF_HUB_CACHE, HF_HOME, XDG_CACHE_HOME) and the home folder. */
export interface HubCacheOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly home?: string;
}

/** The Hugging Face hub cache folder these variables name (it may not exist). */
export function hubCacheDir(options: HubCacheOptions = {}): string {
  const env = options.env ?? process.env;
  const set = (v: string | undefined) => (v !== undefined && v !== '' ? v : undefined);
  const hub = set(env.HF_HUB_CACHE) ?? set(env.HUGGINGFACE_HUB_CACHE);
  if (hub) return hub;
  const hfHome = set(env.HF_HOME);
  if (hfHome) return join(hfHome, 'hub');
  const xdg = set(env.XDG_CACHE_HOME);
  if (xdg) return join(xdg, 'huggingface', 'hub');
  return join(options.home ?? homedir(), '.cache', 'huggingface', 'hub');
}

/** True when the text reads as a Hugging Face model id (`ORG/NAME`), not a path. */
export function isModelId(text: string): boolean {
  return /^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/.test(text) && !text.includes('..');
}

/** The cached `tokenizer.json` of a model id (`Qwen/Qwen3-8B`), or undefined when the cache has none. */
export function findCachedTokenizer(modelId: string, options: HubCacheOptions = {}): string | undefined {
  if (!isModelId(modelId)) return undefined;
  const [org, name] = modelId.split('/') as [string, string];
  const repo = join(hubCacheDir(options), `models--${org}--${name}`);
  const snapshots = join(repo, 'snapshots');
  const inSnapshot = (rev: string) => {
    const p = join(snapshots, rev, 'tokenizer.json');
    return rev !== '' && !rev.includes('/') && !rev.includes('..') && existsSync(p) ? p : undefined;
  };
  try {
    const main = readFileSync(join(repo, 'refs', 'main'), 'utf8').trim();
    const p = inSnapshot(main);
    if (p) return p;
  } catch {
    // no refs/main: the newest snapshot
  }
  let revisions: string[];
  try {
    revisions = readdirSync(snapshots);
  } catch {
    return undefined;
  }
  let best: { path: string; mtime: number } | undefined;
  for (const rev of revisions) {
    const p = inSnapshot(rev);
    if (!p) continue;
    let mtime: number;
    try {
      mtime = statSync(join(snapshots, rev)).mtimeMs;
    } catch {
      continue;
    }
    if (!best || mtime > best.mtime) best = { path: p, mtime };
  }
  return best?.path;
}
