// The app shell arrives with the web issue; until then the page reports whether the API answers.
const root = document.getElementById('root');
fetch('/api/auth/user', { credentials: 'include' })
  .then((res) => {
    if (root) root.dataset.session = res.ok ? 'signed-in' : 'signed-out';
  })
  .catch(() => {
    if (root) root.dataset.session = 'offline';
  });
