// Sets the value of this <input> (date, color, range and the like) as the
// browser's own setter does, and fires input and change; returns '' or why
// the input rejected v.
function(v) {
  const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  this.focus();
  set.call(this, v);
  if (this.value !== v && !(this.type === 'range' && v !== '')) return 'the ' + this.type + ' input rejected ' + JSON.stringify(v) + (this.type === 'date' ? '; use the form YYYY-MM-DD' : this.type === 'time' ? '; use the form HH:MM' : this.type === 'color' ? '; use the form #rrggbb' : '');
  this.dispatchEvent(new Event('input', {bubbles: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return '';
}
