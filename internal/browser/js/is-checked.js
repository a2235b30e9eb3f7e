// Reports whether this checkbox, radio button or ARIA checkbox is checked.
function() { return this.localName === 'input' ? this.checked : this.getAttribute('aria-checked') === 'true'; }
