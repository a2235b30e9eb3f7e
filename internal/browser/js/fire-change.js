// Fires change on this text field after typing, as leaving it would
// (contenteditable elements have no change event).
function() { if (this.localName !== 'div') this.dispatchEvent(new Event('change', {bubbles: true})); }
