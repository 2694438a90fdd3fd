/**
 * The console's entry: the sign-in gate and a small hash router (#/map, #/trips…), one module per page. Leaving a page
 * runs what it returned (its polling stops, its map is freed).
 */
import { get, whenSignedOut } from './api.ts';
import { accessToken, completeSignIn, signIn, signOut } from './auth.ts';
import { apiKeysPage } from './pages/api-keys.ts';
import { devicesPage } from './pages/devices.ts';
import { eventsPage } from './pages/events.ts';
import { liveMapPage } from './pages/live-map.ts';
import { tripsPage } from './pages/trips.ts';
import { webhooksPage } from './pages/webhooks.ts';
import { zonesPage } from './pages/zones.ts';
import { accountOffsetMinutes, offsetLabel, offsetMinutes, pickedOffset, pickOffset, setAccountOffset } from './time.ts';
import { field, h, pageFrame, statusLine } from './ui.ts';

type Page = (main: HTMLElement, params: URLSearchParams) => Promise<() => void>;

const PAGES: { path: string; title: string; page: Page }[] = [
  { path: 'map', title: 'Live map', page: liveMapPage },
  { path: 'trips', title: 'Trips', page: tripsPage },
  { path: 'events', title: 'Events', page: eventsPage },
  { path: 'webhooks', title: 'Webhooks', page: webhooksPage },
  { path: 'zones', title: 'Zones', page: zonesPage },
  { path: 'devices', title: 'Devices', page: devicesPage },
  { path: 'keys', title: 'API keys', page: apiKeysPage },
];

const main = document.getElementById('main') as HTMLElement;
const nav = document.getElementById('nav') as HTMLElement;
const account = document.getElementById('account') as HTMLElement;
let leave: () => void = () => undefined;
let generation = 0;

function route(): { path: string; params: URLSearchParams } {
  const [path = 'map', query = ''] = location.hash.replace(/^#\/?/, '').split('?');
  return { path: path || 'map', params: new URLSearchParams(query) };
}

async function show(): Promise<void> {
  leave();
  leave = () => undefined;
  if (!accessToken()) return showSignIn();
  const { path, params } = route();
  const entry = PAGES.find((candidate) => candidate.path === path) ?? PAGES[0];
  if (!entry) return;
  for (const link of nav.querySelectorAll('a')) {
    if (link.getAttribute('href') === `#/${entry.path}`) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const mine = ++generation;
  const done = await entry.page(main, params).catch((error: unknown) => {
    const status = statusLine();
    pageFrame(main, entry.title, status.element);
    status.error(error);
    return () => undefined;
  });
  // A page that finished loading after the person moved on is left at once.
  if (mine === generation) leave = done;
  else done();
}

function showSignIn(): void {
  nav.hidden = true;
  account.replaceChildren();
  const status = statusLine();
  pageFrame(
    main,
    'Sign in',
    h(
      'p',
      {},
      'The fleet console shows your vehicles live, their trips and events, and manages your webhooks, zones, devices and API keys.',
    ),
    h('button', { type: 'button', class: 'primary', onclick: () => signIn().catch((error: unknown) => status.error(error)) }, 'Sign in'),
    status.element,
  );
}

interface Account {
  email: string;
  user_name: string;
  gmt_offset_minutes: number;
}

/** Who is signed in, and the user's offset every time is shown in; unread (an error), the browser's offset stands in. */
async function readAccount(): Promise<Account | undefined> {
  const signedIn = await get<Account>('getAccount').catch(() => undefined);
  if (signedIn) setAccountOffset(signedIn.gmt_offset_minutes);
  return signedIn;
}

function showChrome(signedIn: Account | undefined): void {
  nav.hidden = false;
  nav.replaceChildren(h('ul', {}, ...PAGES.map((page) => h('li', {}, h('a', { href: `#/${page.path}` }, page.title)))));
  account.replaceChildren(
    ...(signedIn ? [h('span', { class: 'signed-in' }, `${signedIn.email} · ${signedIn.user_name}`)] : []),
    field('Times in', offsetPicker()),
    h('button', { type: 'button', onclick: () => void signOut() }, 'Sign out'),
  );
}

/** The account's offset first (the default), then every half hour from GMT-12 to GMT+14 to read times in instead. */
function offsetPicker(): HTMLSelectElement {
  const own = accountOffsetMinutes();
  const picked = pickedOffset();
  const picker = h('select', {});
  if (own !== undefined) picker.append(new Option(`${offsetLabel(own)} (your account)`, '', false, picked === null));
  const selected = picked ?? (own === undefined ? offsetMinutes() : undefined);
  for (let minutes = -720; minutes <= 840; minutes += 30)
    picker.append(new Option(offsetLabel(minutes), String(minutes), false, minutes === selected));
  picker.addEventListener('change', () => {
    pickOffset(picker.value === '' ? null : Number(picker.value));
    void show();
  });
  return picker;
}

async function start(): Promise<void> {
  whenSignedOut(() => {
    if (main.dataset.signedOut) return;
    main.dataset.signedOut = '1';
    showSignIn();
  });
  if (location.pathname.endsWith('/callback')) {
    try {
      await completeSignIn();
    } catch (error) {
      showSignIn();
      const status = statusLine();
      main.append(status.element);
      status.error(error);
      return;
    }
  }
  if (accessToken()) showChrome(await readAccount());
  window.addEventListener('hashchange', () => void show());
  await show();
}

void start();
