// Part of pagewalk.js (see there): how Chromium maps elements to roles,
// which roles take their name from their content, and the states of ARIA
// widgets (checked, orientation, required, read-only, selection, ranges).
// pagewalk.go puts it in place of its marker line, inside pagewalk.js's
// function, where it uses that function's helpers.

  // complementary tells whether an <aside> is a landmark: when it is the
  // page's or its main part's, or is named (HTML-AAM).
  const complementary = (el) => {
    const scope = el.parentElement?.closest('article, aside, nav, section, main');
    return !scope || scope.localName === 'main' || el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || el.hasAttribute('title');
  };
  // topLevel tells whether a header or footer is the page's (a landmark).
  const topLevel = (el) => !el.parentElement?.closest('article, aside, main, nav, section');
  const inputRole = {
    button: 'button', submit: 'button', reset: 'button', image: 'button', checkbox: 'checkbox', radio: 'radio',
    range: 'slider', number: 'spinbutton', search: 'searchbox', color: 'ColorWell', date: 'Date',
    'datetime-local': 'DateTime', time: 'InputTime', month: 'Date', week: 'Date', file: 'button',
  };
  const ariaRoles = { img: 'image', presentation: 'none', none: 'none' };
  // roleOf returns Chromium's role for an element, '' for an element that
  // only groups its children (left out of the tree).
  const roleOf = (el) => {
    const explicit = el.getAttribute('role');
    if (explicit) {
      const r = explicit.trim().split(/\s+/)[0].toLowerCase();
      // An option outside a listbox or group has its element's own role.
      if (r && (r !== 'option' || optionInContext(el))) return ariaRoles[r] ?? r;
    }
    switch (el.localName) {
      case 'a': return el.hasAttribute('href') ? 'link' : '';
      case 'area': return el.hasAttribute('href') ? 'link' : '';
      case 'article': return 'article';
      case 'aside': return complementary(el) ? 'complementary' : '';
      case 'blockquote': return 'blockquote';
      case 'br': return 'LineBreak';
      case 'button': return 'button';
      case 'caption': return 'caption';
      case 'code': return 'code';
      case 'dd': return 'definition';
      case 'del': return 'deletion';
      case 'details': return 'group';
      case 'dialog': return 'dialog';
      case 'dl': return 'list';
      case 'dt': return 'term';
      case 'em': return 'emphasis';
      case 'fieldset': return 'group';
      case 'figcaption': return 'Figcaption';
      case 'figure': return 'figure';
      case 'footer': return topLevel(el) ? 'contentinfo' : 'SectionFooter';
      case 'form': return 'form';
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'header': return topLevel(el) ? 'banner' : 'SectionHeader';
      case 'hr': return 'separator';
      case 'iframe': case 'frame': return 'Iframe';
      case 'img': return el.getAttribute('alt') === '' ? 'none' : 'image';
      case 'input': return el.type === 'hidden' ? 'none' : el.list ? 'combobox' : inputRole[el.type] ?? 'textbox';
      case 'ins': return 'insertion';
      case 'label': return 'LabelText';
      case 'legend': return 'Legend';
      case 'li': return 'listitem';
      case 'main': return 'main';
      case 'mark': return 'mark';
      case 'menu': case 'ol': case 'ul': return 'list';
      case 'meter': return 'meter';
      case 'nav': return 'navigation';
      case 'optgroup': return 'group';
      case 'option': return 'option';
      case 'output': return 'status';
      case 'p': return 'paragraph';
      case 'progress': return 'progressbar';
      case 'search': return 'search';
      case 'section': return name(el) ? 'region' : '';
      case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'strong': return 'strong';
      case 'summary': return 'DisclosureTriangle';
      case 'svg': return svgContent(el) ? 'none' : name(el, 'image') ? 'image' : '';
      case 'table': return 'table';
      case 'td': return el.closest('table')?.getAttribute('role') === 'grid' ? 'gridcell' : 'cell';
      case 'textarea': return 'textbox';
      case 'th': return el.scope === 'row' || (!el.parentElement?.closest('thead') && el.cellIndex === 0 && el.parentElement?.cells.length > 1 && el.parentElement.querySelector('td')) ? 'rowheader' : 'columnheader';
      case 'time': return 'time';
      case 'tr': return 'row';
    }
    return '';
  };

  // optionInContext tells whether an ARIA option is one for Chromium: the
  // nearest element above it (its aria-owns owner first) with a role other
  // than generic or none is a listbox or a group.
  const optionInContext = (el) => {
    if (el.localName === 'option') return true;
    const up = (e) => (e.id && e.getRootNode().querySelector?.(`[aria-owns~="${CSS.escape(e.id)}"]`)) || e.parentElement || e.getRootNode().host;
    for (let a = up(el); a; a = up(a)) {
      const r = roleOf(a);
      if (r === '' || r === 'generic' || r === 'none') continue;
      return r === 'listbox' || r === 'group';
    }
    return false;
  };

  // svgContent tells whether an <svg> holds text or links, which Chromium
  // shows (and not the svg); one that does not is an image when named.
  const svgContent = (el) => !!el.querySelector('text, a, foreignObject');

  // Roles whose name comes from their content (ARIA "name from content").
  const fromContent = new Set([
    'button', 'cell', 'checkbox', 'columnheader', 'DisclosureTriangle', 'gridcell', 'heading', 'link', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'row', 'rowheader', 'switch', 'tab', 'tooltip', 'treeitem',
    'Legend', 'caption', 'Figcaption', 'doc-backlink', 'doc-biblioref', 'doc-glossref', 'doc-noteref',
  ]);

  // Descendants with these roles add nothing to a name from content.
  const containers = new Set(['group', 'tree', 'listbox', 'menu', 'grid', 'table', 'list']);

  // checkedOf returns the checked state ("true", "false", "mixed") of a
  // checkable element, or "" for others.
  const checkedOf = (el, role) => {
    const aria = el.getAttribute('aria-checked');
    if (aria === 'true' || aria === 'false' || aria === 'mixed') return aria;
    if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) {
      return el.indeterminate && el.type === 'checkbox' ? 'mixed' : String(el.checked);
    }
    return role === 'checkbox' || role === 'radio' || role === 'switch' ? 'false' : '';
  };

  // Orientations by role, when aria-orientation does not say.
  const orientationOf = { menu: 'vertical', listbox: 'vertical', tree: 'vertical', menubar: 'horizontal', slider: 'horizontal', scrollbar: 'vertical', separator: 'horizontal' };
  // Roles that can say they are required, and that can select several
  // items (Chromium's lists).
  const requirable = new Set(['combobox', 'gridcell', 'listbox', 'searchbox', 'spinbutton', 'textbox', 'tree', 'treegrid']);
  const multiselectable = new Set(['grid', 'listbox', 'tablist', 'tree', 'treegrid']);
  // readonlyOf tells whether a grid, or a cell of one, is read-only (a
  // cell as its grid when it does not say); text fields say so themselves.
  const readonlyOf = (el, role) => {
    if (role !== 'grid' && role !== 'treegrid' && role !== 'gridcell') return false;
    const own = el.getAttribute('aria-readonly');
    if (own === 'true' || own === 'false' || role !== 'gridcell') return own === 'true';
    return el.closest('[role=grid], [role=treegrid]')?.getAttribute('aria-readonly') === 'true';
  };
  // followsFocus tells whether a tree item's or a tab's selection follows
  // the focus: in a single-selection tree or tab list where no item says
  // whether it is selected (then each one says it is not, but the focused
  // one). Answers are kept per container.
  const implicit = new Map();
  const followsFocus = (el, role) => {
    const box = el.parentElement?.closest(role === 'tab' ? '[role=tablist]' : '[role=tree], [role=treegrid]');
    if (!box) return false;
    let yes = implicit.get(box);
    if (yes === undefined) implicit.set(box, (yes = box.getAttribute('aria-multiselectable') !== 'true' && !box.querySelector('[aria-selected]')));
    return yes;
  };
  // ariaNumber reads a number attribute as Chromium does: a float, 0 when
  // it is not a number, undefined when it is absent.
  const ariaNumber = (el, attr) => {
    const s = el.getAttribute(attr);
    if (s === null) return undefined;
    return /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(s) ? Math.fround(Number(s)) : 0;
  };
  // ariaRange adds the range of an ARIA range widget to props and returns
  // its value: aria-valuenow kept within the range, or the default of its
  // role (ARIA's, as Chromium applies it). A spinbutton has no default
  // range; the value text is left empty, as Chromium leaves it.
  const ariaRange = (el, role, props) => {
    const min = ariaNumber(el, 'aria-valuemin'), max = ariaNumber(el, 'aria-valuemax'), now = ariaNumber(el, 'aria-valuenow');
    const bounded = role !== 'spinbutton';
    const lo = min ?? 0, hi = max ?? (bounded ? 100 : 0);
    props.push('valuemin', lo, 'valuemax', hi, 'valuetext', '');
    if (now !== undefined) {
      if ((bounded || min !== undefined) && now < lo) return lo;
      if ((bounded || max !== undefined) && now > hi) return hi;
      return now;
    }
    switch (role) {
      case 'slider': case 'scrollbar': return Math.fround((lo + hi) / 2);
      case 'separator': return 50;
      case 'meter': return lo;
      case 'spinbutton': return 0;
    }
    return undefined;
  };
