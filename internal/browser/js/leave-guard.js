// Arms, for a while or until further notice, or disarms a beforeunload
// listener that asks to stay on the page: Chrome then shows a "leave site?"
// dialog before the page is closed or led away, which the server answers.
// It runs in our isolated world, so the page's scripts cannot see, change or
// remove it; installed with capture on the window, it runs before listeners
// the page adds later. mode is "on", "off" or a number of milliseconds.
function(mode) {
  let g = globalThis.__devtoolsMcpLeaveGuard;
  if (!g) {
    g = globalThis.__devtoolsMcpLeaveGuard = {until: 0};
    addEventListener('beforeunload', e => {
      if (Date.now() < g.until) {
        e.preventDefault();
        e.returnValue = '';
      }
    }, true);
  }
  g.until = mode === 'on' ? Infinity : mode === 'off' ? 0 : Date.now() + Number(mode);
}
