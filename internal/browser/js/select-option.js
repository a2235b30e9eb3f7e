// Picks the option of this <select> whose value, label or text is v, and
// fires input and change; returns '' or what went wrong.
function(v) {
  const opts = Array.from(this.options);
  const o = opts.find(o => o.value === v) || opts.find(o => o.label.trim() === v.trim()) || opts.find(o => o.text.trim().toLowerCase() === v.trim().toLowerCase());
  if (!o) return 'no option "' + v + '"; the options are: ' + opts.map(o => JSON.stringify(o.label.trim())).join(', ');
  this.focus();
  o.selected = true;
  this.dispatchEvent(new Event('input', {bubbles: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return '';
}
