import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

/**
 * A bottom sheet: a modal dialog (Radix Dialog: focus kept inside, Esc and the backdrop close
 * it, the page behind inert) that rises from the bottom of a phone's screen, with its title and
 * a close button. `trigger` is the button that opens it; open state is the caller's.
 */
export function Sheet({
  title,
  trigger,
  open,
  onOpenChange,
  children,
}: {
  title: string;
  trigger: ReactNode;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="sheet-backdrop" />
        <Dialog.Content className="sheet" aria-describedby={undefined}>
          <div className="sheet__head">
            <Dialog.Title className="sheet__title">{title}</Dialog.Title>
            <Dialog.Close className="sheet__close" aria-label="Fechar">
              ×
            </Dialog.Close>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
