import { useLayoutEffect, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';

export interface DialogProps {
  /** The id of the element that names the dialog (its heading). */
  labelledBy: string;
  describedBy?: string;
  /** alertdialog for a question about a destructive action. */
  role?: 'dialog' | 'alertdialog';
  onClose: () => void;
  /** What takes the focus when the dialog opens; the first focusable element otherwise. */
  initialFocus?: RefObject<HTMLElement | null>;
  className?: string;
  testId?: string;
  children: ReactNode;
}

/**
 * A modal <dialog>, open while mounted: the page behind it is inert, Esc closes it (without reaching the page's
 * own Esc handlers, such as Stop in the chat), and the focus goes back where it was when it closes.
 */
export function Dialog({
  labelledBy,
  describedBy,
  role,
  onClose,
  initialFocus,
  className,
  testId,
  children,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    initialFocus?.current?.focus();
    return () => {
      if (dialog.open) dialog.close();
      // Only when the focus is lost with the dialog: an action that moved it on purpose keeps its choice.
      if (returnTo?.isConnected && (document.activeElement === document.body || document.activeElement === null))
        returnTo.focus();
    };
  }, [initialFocus]);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  };

  return (
    <dialog
      ref={ref}
      className={['dialog', className].filter(Boolean).join(' ')}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-modal="true"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      data-testid={testId}
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        // The browser's own close request (Esc where the keydown did not reach us): React decides instead.
        event.preventDefault();
        onClose();
      }}
      onMouseDown={(event) => {
        // A press on the backdrop lands on the <dialog> itself, outside its content box.
        if (event.target === event.currentTarget) {
          const box = event.currentTarget.getBoundingClientRect();
          const inside =
            event.clientX >= box.left &&
            event.clientX <= box.right &&
            event.clientY >= box.top &&
            event.clientY <= box.bottom;
          if (!inside) onClose();
        }
      }}
    >
      {children}
    </dialog>
  );
}
