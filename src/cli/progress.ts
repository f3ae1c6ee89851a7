/**
 * Progress of long work on one line of stderr, for a person at a terminal: nothing when stderr is
 * not a terminal (a pipe, a file, CI logs), nothing in the first second unless the input is large,
 * then at most ten updates a second, and the line cleared when the work ends. It goes straight
 * to the terminal, beside the command's own output: a redirected stderr never sees it.
 */

/** Where the line goes: a terminal (process.stderr) or, in tests, anything that says it is one. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** A progress line: what is being done (and how far, when it is counted), then cleared. */
export interface Progress {
  /** Say what is being done; with `total`, how far (`done` of `total`). */
  update(what: string, done?: number, total?: number): void;
  /** Clear the line (when anything was shown). */
  end(): void;
}

/** Work shorter than this shows no progress at all. */
const QUIET_MS = 1000;
/** The line is rewritten at most this often. */
const EVERY_MS = 100;

const NONE: Progress = { update: () => {}, end: () => {} };

/** Options of progressLine. */
export interface ProgressOptions {
  /** Where the line goes (default: stderr). */
  readonly stream?: ProgressStream;
  /** The clock, in milliseconds (default: performance.now). */
  readonly now?: () => number;
  /**
   * Show the line from the start: the work is known to be long (a large input). Otherwise nothing
   * is shown in the first second (an update then is dropped: the next one after it is shown).
   */
  readonly eager?: boolean;
}

/** A progress line on stderr under the command's name; a no-op when the stream is not a terminal. */
export function progressLine(command: string, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  if (!stream.isTTY) return NONE;
  const now = options.now ?? (() => performance.now());
  const start = now();
  const quiet = options.eager ? 0 : QUIET_MS;
  let last = -Infinity;
  let shown = false;
  let lastWhat = '';
  return {
    update(what, done, total) {
      const t = now();
      // a new stage is shown at once (after the quiet time), a count at most every EVERY_MS
      if (t - start < quiet || (what === lastWhat && t - last < EVERY_MS && done !== total)) return;
      last = t;
      lastWhat = what;
      const count = total !== undefined && done !== undefined ? ` ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}` : '';
      stream.write(`\r\u001b[2Kharmony-catalog ${command}: ${what}${count}`);
      shown = true;
    },
    end() {
      if (shown) stream.write('\r\u001b[2K');
      shown = false;
      lastWhat = '';
    },
  };
}

/** Inputs this long (characters of JSON text) make long work: their progress is shown from the start. */
export const LONG_INPUT = 1_000_000;
