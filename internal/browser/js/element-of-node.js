// Returns the element this node stands for: itself, or for a text node the
// element that holds it; null when it is no longer in its document.
function() { return !this.isConnected ? null : this.nodeType === 1 ? this : this.parentElement; }
