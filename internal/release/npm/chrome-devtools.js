#!/usr/bin/env node
require('./launch.js').run('chrome-devtools');
