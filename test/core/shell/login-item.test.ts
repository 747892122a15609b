import { describe, expect, it } from 'vitest';
import { autostartEntry, autostartExecPath, shouldStartHidden } from '../../../src-main/core/shell/login-item.ts';

describe('login item', () => {
  it('starts hidden when launched at login, by flag or by the OS\'s report', () => {
    expect(shouldStartHidden(['/opt/desk/desk', '--hidden'])).toBe(true);
    expect(shouldStartHidden(['/opt/desk/desk'], true)).toBe(true);
    expect(shouldStartHidden(['/opt/desk/desk'])).toBe(false);
  });

  it('autostarts the AppImage file rather than its mounted copy', () => {
    expect(autostartExecPath('/tmp/.mount_x/desk', { APPIMAGE: '/home/t/Desk.AppImage' })).toBe('/home/t/Desk.AppImage');
    expect(autostartExecPath('/opt/desk/desk', {})).toBe('/opt/desk/desk');
  });

  it('writes an XDG entry whose Exec survives odd paths', () => {
    const text = autostartEntry({ name: 'Marketplace Desk', execPath: '/home/t/My "Apps"/100%/$desk', comment: 'Trade\ndesk' });
    expect(text.split('\n')).toEqual([
      '[Desktop Entry]',
      'Type=Application',
      'Name=Marketplace Desk',
      'Comment=Trade desk',
      'Exec="/home/t/My \\"Apps\\"/100%%/\\$desk" --hidden',
      'Terminal=false',
      'X-GNOME-Autostart-enabled=true',
      '',
    ]);
  });
});
