#!/usr/bin/env node
// retrace is written in TypeScript and run through tsx's loader, so there is no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
