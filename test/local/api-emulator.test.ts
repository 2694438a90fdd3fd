import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { api } from '../support/api.ts';
import { givenUser } from '../support/builders.ts';

describe('the local API Gateway emulator', () => {
  it('answers an unknown operation or path with a 404 envelope', async () => {
    expect(await api.get('noSuchOperation')).toBeError(404, 'unknown operation');
    const res = await fetch(`${inject('apiUrl')}/elsewhere`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ version: '1', result: 'error', error_msg: 'unknown operation' });
  });

  it('passes the last value of a repeated query parameter, as API Gateway does', async () => {
    const user = await givenUser();
    const res = await fetch(`${inject('apiUrl')}/api/getExpenseTypes?api_key=wrong&api_key=${user.key}`);
    expect(res.status).toBe(200);
  });

  it('passes query parameters named like Object.prototype members to the handler', async () => {
    const user = await givenUser();
    for (const name of ['constructor', '__proto__', 'hasOwnProperty', 'toString']) {
      const res = await fetch(`${inject('apiUrl')}/api/getExpenseTypes?api_key=${user.key}&${name}=1&${name}=2`);
      expect(res.status, name).toBe(200);
    }
  });

  it('turns a body over the service limit into a 413 envelope', async () => {
    const user = await givenUser();
    const res = await api.post('addExpenseType', { api_key: user.key, expense_name: 'x'.repeat(300 * 1024) });
    expect(res).toBeError(413, 'request body too large (max 256 KB)');
  });

  it('serves a trailing slash like the plain path', async () => {
    const user = await givenUser();
    const res = await fetch(`${inject('apiUrl')}/api/getExpenseTypes/?api_key=${user.key}`);
    expect(res.status).toBe(200);
  });
});
