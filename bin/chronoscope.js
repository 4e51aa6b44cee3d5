#!/usr/bin/env -S MALLOC_ARENA_MAX=1 node --max-semi-space-size=4 --heap-growing-percent=20
import('../dist/server/main.js');
