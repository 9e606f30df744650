import { useEffect, useRef } from 'react';
import { SHORTCUTS, SITE_SHORTCUT } from './shortcuts';

/** The `?` overlay: every keyboard shortcut (shortcuts.ts) and what it does. Escape or Close shut it. */
export function ShortcutsHelp({ open, close, sites }: { open: boolean; close(): void /** Whether keys 1–9 switch sites here. */; sites: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} className="shortcuts-dialog" aria-label="Keyboard shortcuts" onClose={close}>
      <h2>Keyboard shortcuts</h2>
      <table>
        <tbody>
          {(sites ? [...SHORTCUTS, SITE_SHORTCUT] : SHORTCUTS).map((shortcut) => (
            <tr key={shortcut.keys}>
              <td>
                <kbd>{shortcut.keys}</kbd>
              </td>
              <td>{shortcut.label}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">Shortcuts do nothing while you type in a field.</p>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={close}>
          Close
        </button>
      </div>
    </dialog>
  );
}
