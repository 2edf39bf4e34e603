/**
 * A symlink race for the confinement tests: a small C program (compiled once per machine into the OS temp folder with
 * `cc`; python3 with ctypes where no compiler exists) swaps a folder (or file) on a path with a symlink to an outside
 * one by renameat2(RENAME_EXCHANGE), in a tight loop, until it is stopped. Stopping it puts the real entry back and
 * answers how many swaps it made, so a test can check that the race really ran.
 *
 * The loop also keeps its counts (swaps, and attempts: a swap fails once a tool moved or deleted the entry) in a small
 * file it maps into memory, so a test can see the race progress while it runs: on a loaded machine the flipper may
 * get almost no processor time, and a test that paces its calls on the attempts (`ranSince`) interleaves with the
 * loop instead of finding afterwards that it never ran.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const C_SOURCE = String.raw`#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
static volatile sig_atomic_t stopping = 0;
static void on_signal(int sig) { (void)sig; stopping = 1; }
static int exchange(const char *a, const char *b) {
  return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
}
int main(int argc, char **argv) {
  if (argc != 4) { fprintf(stderr, "usage: flipper PATH LINK COUNTER_FILE\n"); return 2; }
  int fd = open(argv[3], O_RDWR | O_CREAT, 0600);
  if (fd < 0 || ftruncate(fd, 16) != 0) { perror("counter"); return 1; }
  volatile unsigned long long *shared = mmap(NULL, 16, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (shared == MAP_FAILED) { perror("mmap"); return 1; }
  struct sigaction sa = {0};
  sa.sa_handler = on_signal;
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  unsigned long long flips = 0, failures = 0;
  if (exchange(argv[1], argv[2]) != 0) { perror("renameat2"); return 1; }
  flips = 1;
  shared[0] = flips;
  shared[1] = 1;
  printf("flipping\n");
  fflush(stdout);
  while (!stopping) {
    if (exchange(argv[1], argv[2]) == 0) shared[0] = ++flips; else failures++;
    shared[1] = flips + failures;
  }
  /* An odd count leaves the link in place: swap once more so the real entry is back. */
  if (flips % 2 == 1 && exchange(argv[1], argv[2]) == 0) flips++;
  printf("flips %llu failures %llu\n", flips, failures);
  fflush(stdout);
  return 0;
}
`;

const PY_SOURCE = String.raw`import ctypes, mmap, os, signal, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
fn = libc.renameat2
fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
a, b = sys.argv[1].encode(), sys.argv[2].encode()
fd = os.open(sys.argv[3], os.O_RDWR | os.O_CREAT, 0o600)
os.ftruncate(fd, 16)
shared = mmap.mmap(fd, 16)
stopping = False
def on_signal(sig, frame):
    global stopping
    stopping = True
signal.signal(signal.SIGTERM, on_signal)
signal.signal(signal.SIGINT, on_signal)
if fn(-100, a, -100, b, 2) != 0:
    sys.exit("renameat2 failed")
flips, failures = 1, 0
struct.pack_into("<QQ", shared, 0, flips, 1)
print("flipping", flush=True)
while not stopping:
    if fn(-100, a, -100, b, 2) == 0: flips += 1
    else: failures += 1
    struct.pack_into("<QQ", shared, 0, flips, flips + failures)
if flips % 2 == 1 and fn(-100, a, -100, b, 2) == 0: flips += 1
print("flips %d failures %d" % (flips, failures), flush=True)
`;

let program: { command: string; args: string[] } | undefined;

/** The flipper program, built once per machine (a content hash names it, so a changed source builds anew). */
function flipperProgram(): { command: string; args: string[] } {
  if (program !== undefined) return program;
  const hash = createHash('sha256').update(C_SOURCE).digest('hex').slice(0, 12);
  const dir = path.join(os.tmpdir(), `homebody-flipper-${hash}`);
  const binary = path.join(dir, 'flipper');
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    const source = path.join(dir, `flipper-${process.pid}.c`);
    const built = path.join(dir, `flipper-${process.pid}`);
    writeFileSync(source, C_SOURCE);
    const cc = spawnSync('cc', ['-O2', '-o', built, source], { encoding: 'utf8' });
    if (cc.status === 0) renameSync(built, binary); // atomic: two test files building at once both end well
  }
  if (existsSync(binary)) {
    program = { command: binary, args: [] };
  } else {
    const script = path.join(dir, 'flipper.py');
    writeFileSync(script, PY_SOURCE);
    program = { command: 'python3', args: [script] };
  }
  return program;
}

export interface Flipper {
  /** The entry being swapped. */
  readonly target: string;
  /** How many swaps the loop has tried so far (made or failed), read live from its counter file. */
  attempts(): number;
  /**
   * Resolves with the attempts once they are past `seen`: a test awaits this before each call, so every call follows
   * at least one more turn of the loop whatever the machine's load. Rejects if the loop stalled for a long while.
   */
  ranSince(seen: number): Promise<number>;
  /** Stops the loop, puts the real entry back, removes the link, and answers how many swaps were made. */
  stop(): Promise<number>;
}

const running = new Set<Flipper>();
const STALL_MS = 30_000;
let flippersStarted = 0;

/**
 * Starts swapping `target` (a folder or file) with a symlink to `outside`, made beside it as `.flip-<name>-<n>`.
 * Resolves once the first swap happened.
 */
export async function startSymlinkFlipper(target: string, outside: string): Promise<Flipper> {
  // A fresh name each time: a call that replaced the link by rename leaves a real entry under the old one.
  const link = path.join(path.dirname(target), `.flip-${path.basename(target)}-${++flippersStarted}`);
  symlinkSync(outside, link);
  const counterFile = path.join(os.tmpdir(), `homebody-flips-${process.pid}-${flippersStarted}`);
  writeFileSync(counterFile, Buffer.alloc(16));
  const counter = openSync(counterFile, 'r');
  const { command, args } = flipperProgram();
  const child: ChildProcess = spawn(command, [...args, target, link, counterFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.on('error', (err) => {
      errors += String(err);
      resolve(null);
    });
  });

  try {
    await new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (output.includes('flipping\n')) resolve();
      };
      child.stdout?.on('data', check);
      void exited.then((code) => reject(new Error(`The flipper stopped before flipping (exit ${code}): ${errors}`)));
    });
  } catch (err) {
    rmSync(link, { force: true });
    closeSync(counter);
    rmSync(counterFile, { force: true });
    throw err;
  }

  let stopped: Promise<number> | undefined;
  const bytes = Buffer.alloc(16);
  let lastAttempts = 1;
  const attempts = (): number => {
    // After stop the file is gone: the last count read stands.
    if (stopped === undefined && readSync(counter, bytes, 0, 16, 0) === 16) {
      lastAttempts = Number(bytes.readBigUInt64LE(8));
    }
    return lastAttempts;
  };

  const flipper: Flipper = {
    target,
    attempts,
    async ranSince(seen) {
      // A bound on the wait, not on speed: a loop that never swaps again is a broken test, and says so.
      const deadline = Date.now() + STALL_MS;
      for (;;) {
        const now = attempts();
        if (now > seen) return now;
        if (stopped !== undefined) throw new Error('The flipper was stopped');
        if (Date.now() > deadline) throw new Error(`The flipper stalled for ${STALL_MS / 1000} s (at ${now} attempts)`);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    },
    stop() {
      stopped ??= (async () => {
        child.kill('SIGTERM');
        const code = await exited;
        running.delete(flipper);
        closeSync(counter);
        rmSync(counterFile, { force: true });
        const match = /flips (\d+)/.exec(output);
        // Whatever the test did meanwhile, the real entry ends at `target` and the link goes.
        const atLink = lstatSync(link, { throwIfNoEntry: false });
        if (
          lstatSync(target, { throwIfNoEntry: false })?.isSymbolicLink() === true &&
          atLink?.isSymbolicLink() === false
        ) {
          rmSync(target);
          renameSync(link, target);
        } else if (atLink?.isSymbolicLink() === true) {
          rmSync(link);
        }
        if (code !== 0 || match === null) throw new Error(`The flipper failed (exit ${code}): ${errors}${output}`);
        return Number(match[1]);
      })();
      return stopped;
    },
  };
  running.add(flipper);
  return flipper;
}

/** Stops every flipper still running (for afterEach/afterAll), ignoring their failures. */
export async function stopAllFlippers(): Promise<void> {
  await Promise.all([...running].map((flipper) => flipper.stop().catch(() => 0)));
}
