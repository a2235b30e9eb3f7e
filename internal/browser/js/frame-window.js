// Returns the window of this node's document.
function() { return this.ownerDocument.defaultView; }
