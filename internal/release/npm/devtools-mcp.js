#!/usr/bin/env node
require('./launch.js').run('devtools-mcp');
