/** The local provider's pages: plain HTML, no script and no inline style (the console's CSP applies), labelled fields. */
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

const page = (title: string, body: string): string => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} · Fleet console</title>
</head>
<body>
  <main>
    <h1>${escapeHtml(title)}</h1>
${body}
  </main>
</body>
</html>
`;

export function loginPage(uid: string, { email = '', error }: { email?: string; error?: string } = {}): string {
  const alert = error ? `    <p role="alert">${escapeHtml(error)}</p>\n` : '';
  return page(
    'Sign in',
    `${alert}    <form method="post" action="/oidc/interaction/${escapeHtml(uid)}">
      <p><label for="email">E-mail address</label><br>
        <input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}"></p>
      <p><label for="password">Password</label><br>
        <input id="password" name="password" type="password" autocomplete="current-password" required></p>
      <p><button type="submit">Sign in</button></p>
    </form>`,
  );
}

/** A page with a message and, optionally, a form the provider made (sign-out's). */
export const messagePage = (title: string, message: string, form = ''): string => page(title, `    <p>${escapeHtml(message)}</p>\n${form}`);
