import { describe, expect, it } from 'vitest';
import { addressRefusal, parseTarget } from '../../../shared/domain/webhooks/target-policy.ts';

const deployed = { allowLocal: false };
const local = { allowLocal: true };

describe('addressRefusal', () => {
  it.each([
    '0.0.0.0',
    '10.1.2.3',
    '100.64.0.1',
    '100.127.255.254',
    '127.0.0.1',
    '169.254.169.254',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.168.0.1',
    '198.18.0.1',
    '198.51.100.1',
    '203.0.113.9',
    '224.0.0.251',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a9fe:a9fe',
    '2001:db8::1',
    '2002:7f00:1::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fec0::1',
    'ff02::1',
  ])('refuses %s in a deployed stack', (address) => {
    expect(addressRefusal(address, deployed)).toBe(`${address} is not a public address`);
  });

  it.each(['8.8.8.8', '93.184.215.14', '100.128.0.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'accepts the public address %s',
    (address) => {
      expect(addressRefusal(address, deployed)).toBeUndefined();
    },
  );

  it('accepts loopback only under npm start, and nothing else private there', () => {
    expect(addressRefusal('127.0.0.1', local)).toBeUndefined();
    expect(addressRefusal('::1', local)).toBeUndefined();
    expect(addressRefusal('::ffff:127.0.0.1', local)).toBeUndefined();
    expect(addressRefusal('169.254.169.254', local)).toBe('169.254.169.254 is not a public address');
    expect(addressRefusal('10.0.0.1', local)).toBe('10.0.0.1 is not a public address');
  });
});

describe('parseTarget', () => {
  it('refuses http in a deployed stack and accepts it under npm start', () => {
    expect(parseTarget('http://127.0.0.1:9000/hook', deployed)).toEqual({ refusal: 'the scheme must be https' });
    expect(parseTarget('http://127.0.0.1:9000/hook', local)).toMatchObject({ url: new URL('http://127.0.0.1:9000/hook') });
  });

  it('reads an address however it is written (decimal, hex, short forms)', () => {
    for (const url of ['https://2130706433/', 'https://0x7f000001/', 'https://127.1/', 'https://0177.0.0.1/'])
      expect(parseTarget(url, deployed)).toEqual({ refusal: '127.0.0.1 is not a public address' });
  });

  it('leaves a host name to be resolved', () => {
    expect(parseTarget('https://hooks.example.com/x', deployed)).toMatchObject({ url: new URL('https://hooks.example.com/x') });
  });
});
