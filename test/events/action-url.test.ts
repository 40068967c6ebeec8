import { actionUrlOf } from '../../src/core/events/record-event.js';

describe('actionUrl: the public URL joined with the item’s application path', () => {
  it.each([
    ['http://app.test', '/tenants/t1/users/u1', 'http://app.test/tenants/t1/users/u1'],
    ['http://app.test/', '/tenants/t1', 'http://app.test/tenants/t1'],
    [
      'https://msp.example.com/admin',
      '/tenants/t1/users/u1',
      'https://msp.example.com/admin/tenants/t1/users/u1',
    ],
    ['https://msp.example.com/admin/', '/webhooks/w1', 'https://msp.example.com/admin/webhooks/w1'],
    ['https://msp.example.com/a/b', 'tenants/t1', 'https://msp.example.com/a/b/tenants/t1'],
    [
      'https://msp.example.com:8443/admin?x=1#top',
      '/tenants/t1',
      'https://msp.example.com:8443/admin/tenants/t1',
    ],
    [
      'https://msp.example.com/admin',
      '/tenants/t1/licenses/assignments?sku=E5',
      'https://msp.example.com/admin/tenants/t1/licenses/assignments?sku=E5',
    ],
  ])('%s + %s → %s', (publicUrl, path, expected) => {
    expect(actionUrlOf(publicUrl, path)).toBe(expected);
  });
});
