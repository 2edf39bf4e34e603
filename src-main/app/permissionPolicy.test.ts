import { describe, expect, it } from 'vitest';
import { isPermissionAllowed } from './permissionPolicy.js';

describe('isPermissionAllowed', () => {
  it('denies device, location, notification and external-open permissions', () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read', 'hid']) {
      expect(isPermissionAllowed(permission, 'homebody://app/index.html'), permission).toBe(false);
    }
  });

  it('allows a sanitized clipboard write from our own page only', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', 'homebody://app/index.html')).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'homebody://app')).toBe(true);
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://example.com/')).toBe(false);
    expect(isPermissionAllowed('clipboard-sanitized-write', undefined)).toBe(false);
  });
});
