// `npm start`: the built server, started the way bin/chronoscope.js starts it (node's flags and the environment of
// server/launch-flags.ts, which only a new process can take), with this command's arguments. A script, not a
// line of package.json: an environment assignment there would not run in Windows' cmd.exe.
import { spawn } from 'node:child_process';
import { SERVER_NODE_ARGS, serverEnv } from '../dist/server/launch-flags.js';

const server = spawn(process.execPath, [...SERVER_NODE_ARGS, 'dist/server/main.js', ...process.argv.slice(2)], { stdio: 'inherit', env: serverEnv(process.env) });
// Ctrl-C reaches the whole process group: the server stops itself, and this waits for it to have.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
