// Focuses a slider or spinbutton (unless focus, false, says only to read)
// and returns its aria-valuenow, aria-valuemin, aria-valuemax and
// aria-valuetext (null when not set), and whether it is vertical.
function(focus) {
  if (focus) this.focus({ preventScroll: false });
  const num = (a) => { const v = this.getAttribute(a); return v === null || v.trim() === '' || isNaN(+v) ? null : +v; };
  return { now: num('aria-valuenow'), min: num('aria-valuemin'), max: num('aria-valuemax'), text: this.getAttribute('aria-valuetext'),
    vertical: this.getAttribute('aria-orientation') === 'vertical', focused: this.getRootNode().activeElement === this };
}
