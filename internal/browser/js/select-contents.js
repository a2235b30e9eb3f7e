// Focuses this text field and selects what it holds, so that typing
// replaces it.
function() {
  this.focus();
  if (this.select) { this.select(); return; }
  const r = document.createRange();
  r.selectNodeContents(this);
  const sel = this.ownerDocument.getSelection();
  sel.removeAllRanges();
  sel.addRange(r);
}
