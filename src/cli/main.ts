/** The command line's entry (README.md, "Command line"): run.ts with the process's streams. */
import { createInterface } from 'node:readline';
import { run } from './run.ts';

// Piping into `head` closes stdout early: not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
});

let reading = false;
process.exitCode = await run(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  isTerminal: process.stderr.isTTY === true,
  input: () => {
    reading = true;
    return createInterface({ input: process.stdin, crlfDelay: Infinity });
  },
  env: process.env,
});
// A stdin its writer keeps open must not hold the process.
if (reading) process.stdin.destroy();
