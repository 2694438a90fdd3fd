/**
 * API keys, the management area the spec names: create (the key shown once), list (prefix, created, last used, locked),
 * lock, unlock, delete. Only a signed-in person may call these operations (an API key cannot make keys).
 */
import { get, post } from '../api.ts';
import { field, h, pageFrame, shownOnce, statusLine, submitted, table } from '../ui.ts';

interface ApiKey {
  api_key_uid: number | string;
  prefix: string;
  created_datetime: string;
  last_used_datetime: string | null;
  locked: 0 | 1;
}

export async function apiKeysPage(main: HTMLElement): Promise<() => void> {
  const status = statusLine();
  const once = h('div', { 'aria-live': 'polite' });
  const list = h('section', { 'aria-label': 'Keys' });
  const description = h('input', { type: 'text', maxlength: 255 });
  const form = h(
    'form',
    { class: 'card', onsubmit: submitted(() => create()) },
    h('h2', {}, 'Create an API key'),
    field('Key description', description, 'Optional: what the key is for'),
    h('button', { type: 'submit' }, 'Create API key'),
  );
  pageFrame(main, 'API keys', status.element, once, list, form);

  const act = async (operation: string, key: ApiKey, done: string) => {
    status.loading('Working…');
    try {
      await post(operation, { api_key_uid: key.api_key_uid });
      await refresh();
      status.done(done);
    } catch (error) {
      status.error(error);
    }
  };
  const refresh = async () => {
    const { api_keys } = await get<{ api_keys: ApiKey[] }>('getApiKeys');
    list.replaceChildren(
      table(
        'Your API keys',
        ['Key', 'Created', 'Last used', 'State', 'Actions'],
        api_keys.map((key) => [
          `${key.prefix}…`,
          // Key times come in the user's own offset, as answered.
          key.created_datetime,
          key.last_used_datetime ?? 'never',
          key.locked ? 'locked' : 'active',
          h(
            'div',
            { class: 'actions' },
            key.locked
              ? h(
                  'button',
                  { type: 'button', onclick: () => act('unlockApiKey', key, `Key ${key.prefix} unlocked.`) },
                  `Unlock key ${key.prefix}`,
                )
              : h(
                  'button',
                  { type: 'button', onclick: () => act('lockApiKey', key, `Key ${key.prefix} locked.`) },
                  `Lock key ${key.prefix}`,
                ),
            h(
              'button',
              { type: 'button', class: 'danger', onclick: () => act('deleteApiKey', key, `Key ${key.prefix} deleted.`) },
              `Delete key ${key.prefix}`,
            ),
          ),
        ]),
      ),
    );
  };
  const create = async () => {
    status.loading('Creating a key…');
    try {
      const answer = await post<{ api_key: string }>('addApiKey', { description: description.value || undefined });
      once.replaceChildren(shownOnce('New API key', answer.api_key));
      form.reset();
      await refresh();
      status.done('Key created: it is shown only this once.');
    } catch (error) {
      status.error(error);
    }
  };
  status.loading('Loading keys…');
  try {
    await refresh();
    status.done();
  } catch (error) {
    status.error(error);
  }
  return () => undefined;
}
