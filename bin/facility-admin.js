#!/usr/bin/env node
// The package's command; `npm start` and `npm run build` produce dist/.
import '../dist/cli.js';
