// Loads url from inside the page (with its cookies and origin) and
// resolves with the body's text; rejects with the status when it fails.
(url) => fetch(url).then(r => r.ok ? r.text() : Promise.reject(new Error(r.status)))
