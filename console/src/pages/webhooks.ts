/**
 * Webhooks: the endpoints with their event types and vehicles; add (the secret shown once), rotate the secret (shown
 * once), send a test, see the delivery attempts (status, latency, answer) and redeliver one, delete.
 */
import { EVENT_TYPES } from '../../../shared/domain/events/event-types.ts';
import { get, post } from '../api.ts';
import { poll } from '../poll.ts';
import { fromGmt } from '../time.ts';
import { type DeliveryAttempt, type Vehicle, vehicleLabel, type Webhook } from '../types.ts';
import { field, h, pageFrame, shownOnce, statusLine, submitted, table } from '../ui.ts';

/** After a redelivery, the attempts are read again this often until its new attempt shows (at most REDELIVERY_READS times). */
const REDELIVERY_POLL_MS = 1_000;
const REDELIVERY_READS = 30;

export async function webhooksPage(main: HTMLElement): Promise<() => void> {
  const status = statusLine();
  const list = h('section', { 'aria-label': 'Endpoints' });
  const once = h('div', { 'aria-live': 'polite' });
  const detail = h('section', { 'aria-label': 'Delivery attempts' });
  const url = h('input', { type: 'url', required: true, placeholder: 'https://example.com/fleet-events' });
  const description = h('input', { type: 'text', maxlength: 255 });
  const types = checkboxes(
    'Event types (none: every type)',
    'type',
    EVENT_TYPES.map((type) => [type, type]),
  );
  const vehiclesBox = h('div', {});
  const form = h(
    'form',
    { class: 'card', onsubmit: submitted(() => add()) },
    h('h2', {}, 'Add an endpoint'),
    field('Endpoint URL', url),
    field('Description', description),
    types.element,
    vehiclesBox,
    h('button', { type: 'submit' }, 'Add endpoint'),
  );
  pageFrame(main, 'Webhooks', status.element, once, list, detail, form);
  let names = new Map<number, string>();
  let stopWatching: () => void = () => undefined;
  let vehicleChoice = checkboxes('Vehicles (none: every vehicle)', 'vehicle', []);

  const refresh = async () => {
    const { webhooks } = await get<{ webhooks: Webhook[] }>('getWebhooks');
    list.replaceChildren(
      webhooks.length === 0
        ? h('p', {}, 'No endpoints yet: add one below.')
        : table(
            'Webhook endpoints',
            ['Endpoint', 'Event types', 'Vehicles', 'State', 'Last success', 'Actions'],
            webhooks.map((webhook) => [
              h('span', {}, h('strong', {}, webhook.description || webhook.url), h('br', {}), webhook.url),
              webhook.event_types.length ? webhook.event_types.join(', ') : 'every type',
              webhook.vehicle_uids.length ? webhook.vehicle_uids.map((uid) => names.get(uid) ?? uid).join(', ') : 'every vehicle',
              webhook.enabled
                ? webhook.failing_since
                  ? `failing since ${fromGmt(webhook.failing_since)}`
                  : 'enabled'
                : `disabled${webhook.disabled_reason ? `: ${webhook.disabled_reason}` : ''}`,
              fromGmt(webhook.last_success_datetime),
              actions(webhook),
            ]),
          ),
    );
  };
  const act = async (work: () => Promise<void>, doing: string) => {
    status.loading(doing);
    try {
      await work();
    } catch (error) {
      status.error(error);
    }
  };
  const actions = (webhook: Webhook): HTMLElement => {
    const name = webhook.description || webhook.url;
    return h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', onclick: () => act(() => sendTest(webhook), 'Sending a test…') }, `Send test to ${name}`),
      h(
        'button',
        {
          type: 'button',
          onclick: () =>
            act(async () => {
              stopWatching();
              await showDeliveries(webhook);
              status.done();
            }, 'Loading deliveries…'),
        },
        `Deliveries of ${name}`,
      ),
      h('button', { type: 'button', onclick: () => act(() => rotate(webhook), 'Rotating the secret…') }, `Rotate secret of ${name}`),
      h('button', { type: 'button', class: 'danger', onclick: () => act(() => remove(webhook), 'Deleting…') }, `Delete ${name}`),
    );
  };
  const add = () =>
    act(async () => {
      const answer = await post<{ webhook_uid: number; secret: string }>('addWebhook', {
        url: url.value,
        description: description.value,
        event_types: types.values().join(','),
        vehicle_uids: vehicleChoice.values().join(','),
      });
      once.replaceChildren(shownOnce('Signing secret', answer.secret));
      form.reset();
      await refresh();
      status.done(`Endpoint ${answer.webhook_uid} added.`);
    }, 'Adding the endpoint…');
  const sendTest = async (webhook: Webhook) => {
    const answer = await post<{ status_code: number | null; error: string | null; duration_ms: number }>('testWebhook', {
      webhook_uid: webhook.webhook_uid,
    });
    stopWatching();
    await showDeliveries(webhook);
    status.done(`Test sent: ${answer.status_code ?? answer.error} in ${answer.duration_ms} ms.`);
  };
  const rotate = async (webhook: Webhook) => {
    const answer = await post<{ secret: string }>('rotateWebhookSecret', { webhook_uid: webhook.webhook_uid });
    once.replaceChildren(shownOnce('New signing secret', answer.secret));
    status.done('Secret rotated: the old one still signs for 24 hours.');
  };
  const remove = async (webhook: Webhook) => {
    await post('deleteWebhook', { webhook_uid: webhook.webhook_uid });
    stopWatching();
    detail.replaceChildren();
    await refresh();
    status.done(`Endpoint ${webhook.description || webhook.url} deleted.`);
  };
  /** Queues the event again, then reads the attempts until the new one shows (the sender makes it within seconds). */
  const redeliver = async (webhook: Webhook, eventId: string, attemptsBefore: number) => {
    await post('redeliverEvents', { webhook_uid: webhook.webhook_uid, event_id: eventId });
    status.done(`Event ${eventId} queued again: its new attempt shows below once made.`);
    stopWatching();
    let reads = 0;
    stopWatching = poll(REDELIVERY_POLL_MS, async () => {
      const attempts = (await showDeliveries(webhook)).filter((delivery) => delivery.event_id === eventId).length;
      if (attempts > attemptsBefore || ++reads >= REDELIVERY_READS) stopWatching();
      if (attempts > attemptsBefore) status.done(`Event ${eventId} redelivered.`);
    });
  };
  const showDeliveries = async (webhook: Webhook): Promise<DeliveryAttempt[]> => {
    const { deliveries } = await get<{ deliveries: DeliveryAttempt[] }>('getWebhookDeliveries', {
      webhook_uid: webhook.webhook_uid,
      limit: 50,
    });
    detail.replaceChildren(
      h('h2', {}, `Delivery attempts to ${webhook.description || webhook.url}`),
      deliveries.length === 0
        ? h('p', {}, 'No attempts in the last 30 days.')
        : table(
            'Delivery attempts, newest first',
            ['Attempted', 'Event', 'Attempt', 'Status', 'Latency', 'Answer', 'State', ''],
            deliveries.map((delivery) => [
              fromGmt(delivery.attempted_datetime),
              `${delivery.event_type} ${delivery.event_id}`,
              delivery.attempt,
              delivery.status_code ?? '—',
              `${delivery.duration_ms} ms`,
              delivery.error ?? (delivery.status_code ? `HTTP ${delivery.status_code}` : ''),
              delivery.next_attempt_datetime ? `${delivery.state}, next ${fromGmt(delivery.next_attempt_datetime)}` : delivery.state,
              delivery.event_type === 'webhook.test'
                ? ''
                : h(
                    'button',
                    {
                      type: 'button',
                      onclick: () =>
                        act(
                          () =>
                            redeliver(
                              webhook,
                              delivery.event_id,
                              deliveries.filter((attempt) => attempt.event_id === delivery.event_id).length,
                            ),
                          'Queueing…',
                        ),
                    },
                    `Redeliver ${delivery.event_id}`,
                  ),
            ]),
          ),
    );
    return deliveries;
  };

  status.loading('Loading endpoints…');
  try {
    const { vehicles } = await get<{ vehicles: Vehicle[] }>('getVehicles');
    names = new Map(vehicles.map((vehicle) => [Number(vehicle.vehicle_uid), vehicleLabel(vehicle)]));
    vehicleChoice = checkboxes(
      'Vehicles (none: every vehicle)',
      'vehicle',
      vehicles.map((vehicle) => [vehicle.vehicle_uid, vehicleLabel(vehicle)]),
    );
    vehiclesBox.replaceChildren(vehicleChoice.element);
    await refresh();
    status.done();
  } catch (error) {
    status.error(error);
  }
  return () => stopWatching();
}

/** A fieldset of checkboxes, its legend naming the group. */
export function checkboxes(legend: string, name: string, choices: [string, string][]): { element: HTMLElement; values(): string[] } {
  const inputs = choices.map(([value]) => h('input', { type: 'checkbox', name, value, id: `${name}-${value.replace(/\W/g, '-')}` }));
  return {
    element: h(
      'fieldset',
      { class: 'choices' },
      h('legend', {}, legend),
      ...choices.map(([, label], index) =>
        h('div', { class: 'choice' }, inputs[index], h('label', { for: inputs[index]?.id ?? '' }, label)),
      ),
    ),
    values: () => inputs.filter((input) => input.checked).map((input) => input.value),
  };
}
