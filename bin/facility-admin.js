#!/usr/bin/env node
// The package's command; `npm start` and `npm run build` produce dist/.
// dist/cli.js checks the Node version before it loads anything else.
import '../dist/cli.js';
