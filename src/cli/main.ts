/**
 * The entry of the command line: `npm run --silent mahjong -- <command> [flags]` (README.md, "Command line";
 * `node dist/cli/main.js` once built). It hands run.ts the process's arguments, streams and environment, and
 * sets the exit status run() answers.
 */
import { createInterface } from 'node:readline';
import { run } from './run.ts';

// Piping into `head` closes stdout early: that is not an error worth a trace.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
});

let reading = false; // stdin was handed to the command
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
// The command is over (a bad line stops `solve --stdin` at once): a stdin its writer keeps open must not hold
// the process.
if (reading) process.stdin.destroy();
