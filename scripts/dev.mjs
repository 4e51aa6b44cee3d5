// `npm run dev`: the API server from source (tsx, port 7311) and Vite's dev server (port 5173, proxying /api).
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', 'serve', ...args], { stdio: 'inherit' });
const vite = spawn(process.execPath, ['node_modules/vite/bin/vite.js'], { stdio: 'inherit' });
const stop = () => {
  server.kill();
  vite.kill();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', stop);
vite.on('exit', stop);
