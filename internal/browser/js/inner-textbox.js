// Returns the text field inside a combobox (the ARIA 1.1 pattern: a
// role=combobox wrapper holding a textbox), or null when it has none.
function() {
  return this.querySelector('input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=button]), textarea, [contenteditable=""], [contenteditable=true]');
}
