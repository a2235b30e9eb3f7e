// Tells how the element takes a value.
function() {
  const t = this.localName, type = (this.type || '').toLowerCase();
  if (t === 'select') return 'select';
  if (t === 'textarea') return 'text';
  if (t === 'input') {
    if (type === 'checkbox' || type === 'radio') return type;
    if (type === 'file') return 'file';
    if (['date', 'datetime-local', 'month', 'week', 'time', 'color', 'range'].includes(type)) return 'value';
    if (['button', 'submit', 'reset', 'image', 'hidden'].includes(type)) return 'none:<input type=' + type + '>';
    return (this.getAttribute('role') || '').trim().toLowerCase() === 'combobox' ? 'editcombobox' : 'text';
  }
  const role = (this.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
  if (role === 'combobox' && this.isContentEditable) return 'editcombobox';
  if (['combobox', 'listbox', 'slider', 'spinbutton'].includes(role)) return 'aria' + role;
  if (this.isContentEditable) return 'editable';
  if (role === 'checkbox' || role === 'switch') return 'ariacheck';
  return 'none:<' + t + '>';
}
