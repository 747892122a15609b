/**
 * Composition root of the main process: the one place (with desktop/) that
 * imports `electron`. It builds the core services and hands them to the
 * desktop adapters. Filled in by the desktop-shell work.
 */
import { app } from 'electron';

app.whenReady().then(() => undefined);
