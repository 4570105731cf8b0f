import { describe, expect, it } from 'vitest';
import { addressAllowed, checkTargetUrl, isLoopbackAddress, OutboundTargetError, outboundPolicy, pinnedLookup, resolveTarget } from './outbound-target.js';

function refusal(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(OutboundTargetError);
    return (error as OutboundTargetError).reason;
  }
  return undefined;
}

describe('checkTargetUrl', () => {
  it('requires https unless private targets are allowed, and refuses userinfo and fragments', () => {
    expect(checkTargetUrl('https://hooks.example.com/gatehouse?x=1').hostname).toBe('hooks.example.com');
    expect(refusal(() => checkTargetUrl('http://hooks.example.com/'))).toBe('https_required');
    expect(checkTargetUrl('http://127.0.0.1:8080/', { allowPrivate: true }).port).toBe('8080');
    expect(refusal(() => checkTargetUrl('ftp://hooks.example.com/', { allowPrivate: true }))).toBe('invalid_url');
    expect(refusal(() => checkTargetUrl('/relative'))).toBe('invalid_url');
    expect(refusal(() => checkTargetUrl(`https://example.com/${'a'.repeat(2048)}`))).toBe('invalid_url');
    expect(refusal(() => checkTargetUrl('https://user:pw@hooks.example.com/'))).toBe('userinfo');
    expect(refusal(() => checkTargetUrl('https://user@hooks.example.com/'))).toBe('userinfo');
    expect(refusal(() => checkTargetUrl('https://hooks.example.com/#frag'))).toBe('fragment');
    expect(refusal(() => checkTargetUrl('https://hooks.example.com/#'))).toBe('fragment');
  });

  it('judges a literal IP host at once, whatever its spelling', () => {
    for (const url of [
      'https://127.0.0.1/', 'https://[::1]/', 'https://10.1.2.3/', 'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/', 'https://0.0.0.0/', 'https://[::ffff:10.0.0.1]/', 'https://[::ffff:7f00:1]/',
      'https://2130706433/', 'https://0x7f.1/', 'https://[fd00::1]/', 'https://[fe80::1]/', 'https://192.168.1.1/',
      'https://172.16.0.1/', 'https://[::]/', 'https://224.0.0.1/', 'https://255.255.255.255/', 'https://[::127.0.0.1]/',
      'https://[64:ff9b::a00:1]/', 'https://192.0.2.1/',
    ]) {
      expect(refusal(() => checkTargetUrl(url)), url).toBe('private_address');
    }
    expect(checkTargetUrl('https://1.1.1.1/').hostname).toBe('1.1.1.1');
    expect(checkTargetUrl('https://[2606:4700:4700::1111]/').hostname).toBe('[2606:4700:4700::1111]');
    expect(checkTargetUrl('https://10.1.2.3/', { allowPrivate: true }).hostname).toBe('10.1.2.3');
  });

  it('allows only public unicast addresses', () => {
    for (const address of ['1.1.1.1', '8.8.8.8', '93.184.215.14', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e']) expect(addressAllowed(address), address).toBe(true);
    for (const address of ['127.0.0.1', '::1', '10.0.0.1', '172.31.255.255', '192.168.0.1', '169.254.169.254', '100.64.0.1', '100.127.255.255', 'fd12:3456::1', 'fe80::1', '::', '0.0.0.0', 'ff02::1', '::ffff:127.0.0.1', '::ffff:169.254.169.254', '::7f00:1', 'not an address']) {
      expect(addressAllowed(address), address).toBe(false);
    }
  });
});

describe('outboundPolicy: when a private target may be reached', () => {
  it('reaches loopback hosts only when the public URL is itself loopback, anything private only on the opt-in', () => {
    for (const publicUrl of ['http://localhost:8080', 'http://127.0.0.1:4455', 'http://[::1]:8080', 'https://id.localhost']) {
      expect(outboundPolicy({ publicUrl }), publicUrl).toEqual({ allowPrivate: false, allowLoopback: true });
    }
    for (const publicUrl of ['https://id.example.com', 'http://10.0.0.5:8080', 'https://192.168.1.10', 'not a url']) {
      expect(outboundPolicy({ publicUrl }), publicUrl).toEqual({ allowPrivate: false, allowLoopback: false });
    }
    expect(outboundPolicy({ publicUrl: 'https://id.example.com', outboundAllowPrivate: true }).allowPrivate).toBe(true);
  });

  it('lets a loopback public URL reach loopback hosts (over http too), and nothing else that is private', () => {
    const dev = { allowLoopback: true };
    for (const url of ['http://127.0.0.1:8080/', 'http://localhost:3000/hook', 'http://[::1]:9000/', 'https://127.0.0.2/']) {
      expect(refusal(() => checkTargetUrl(url, dev)), url).toBeUndefined();
    }
    for (const url of ['https://10.0.0.1/', 'https://169.254.169.254/latest', 'https://[::ffff:192.168.1.1]/', 'https://[::ffff:127.0.0.1]/', 'https://192.168.1.1/']) {
      expect(refusal(() => checkTargetUrl(url, dev)), url).toBe('private_address');
    }
    expect(refusal(() => checkTargetUrl('http://hooks.example.com/', dev))).toBe('https_required');
    expect(refusal(() => checkTargetUrl('http://hooks.example.com/', { requireHttps: false }))).toBeUndefined();
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('10.0.0.1')).toBe(false);
  });

  it('judges a resolved name by its addresses: localhost is loopback, so only a loopback public URL (or the opt-in) reaches it', async () => {
    await expect(resolveTarget('http://localhost:1/hook', { allowLoopback: true })).resolves.toMatchObject({ addresses: expect.any(Array) });
    await expect(resolveTarget('http://localhost:1/hook', { requireHttps: false })).rejects.toMatchObject({ reason: 'private_address' });
  });
});

describe('resolveTarget', () => {
  it('resolves a name once and refuses it when any address is private (localhost)', async () => {
    await expect(resolveTarget('https://localhost/hook')).rejects.toMatchObject({ reason: 'private_address' });
    const allowed = await resolveTarget('http://localhost:1/hook', { allowPrivate: true });
    expect(allowed.addresses.length).toBeGreaterThan(0);
    expect(allowed.addresses.every((entry) => !addressAllowed(entry.address))).toBe(true);
    await expect(resolveTarget('https://no-such-host.invalid/')).rejects.toMatchObject({ reason: 'dns_failure' });
  });

  it("pins the socket's lookup to the checked addresses, whatever name is asked", () => {
    const lookup = pinnedLookup([{ address: '203.0.113.7', family: 4 }, { address: '2001:db8::7', family: 6 }]);
    const answers: unknown[] = [];
    lookup('evil.example', { all: true }, (error, address) => answers.push(error ?? address));
    lookup('evil.example', {}, (error, address, family) => answers.push(error ?? [address, family]));
    lookup('evil.example', { family: 6 }, (error, address, family) => answers.push(error ?? [address, family]));
    expect(answers).toEqual([[{ address: '203.0.113.7', family: 4 }, { address: '2001:db8::7', family: 6 }], ['203.0.113.7', 4], ['2001:db8::7', 6]]);
    const onlyV4 = pinnedLookup([{ address: '203.0.113.7', family: 4 }]);
    onlyV4('x', { family: 6 }, (error) => expect(error?.code).toBe('ENOTFOUND'));
  });
});
