/**
 * The app's names as the operating system knows them. APP_ID must equal
 * `appId` in build/electron-builder.yml: Windows matches it against the
 * installer's Start-menu shortcut before it shows a notification (a test
 * checks the two agree).
 */
export const APP_ID = 'io.marketplacedesk.app';
export const APP_DISPLAY_NAME = 'Marketplace Desk';
