// Reports whether pagewalk.js has read this world's document.
function() { return !!globalThis.__devtoolsMcp?.scripted; }
