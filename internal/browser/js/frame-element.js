// Returns the <iframe> element that holds this node's document, or null.
function() { return this.ownerDocument.defaultView?.frameElement ?? null; }
