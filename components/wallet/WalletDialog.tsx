'use client';

import {
  createContext,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';

interface WalletDialogControls {
  /** Opens the dialog; focus returns to the element that had it when the dialog closes. */
  open(): void;
}

const WalletDialogContext = createContext<WalletDialogControls | null>(null);

export function useWalletDialog(): WalletDialogControls {
  const controls = useContext(WalletDialogContext);
  if (!controls) throw new Error('useWalletDialog needs a WalletDialogProvider around it.');
  return controls;
}

const TITLE_ID = 'wallet-dialog-title';

/** What the dialog lists, from the wallet code once loaded (components/wallet/WalletChoices.tsx). */
export type WalletChoicesView = ComponentType<{ close(): void }>;

/**
 * The wallet chooser, ours rather than wallet-adapter-react-ui's modal: a native modal
 * <dialog> (showModal traps focus and closes on Escape), named by its heading, with a named
 * close button and the wallets as a list of buttons. Opening it is the visitor asking for a
 * wallet: it calls `load`, and the list shows once `Choices` (the loaded wallet code) is there.
 */
export function WalletDialogProvider({
  load,
  Choices,
  children,
}: {
  load(): void;
  Choices: WalletChoicesView | null;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const [isOpen, setOpen] = useState(false);

  const open = useCallback(() => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    load();
    setOpen(true);
    dialog.current?.showModal();
  }, [load]);
  const close = useCallback(() => dialog.current?.close(), []);
  // Escape, the close button and a choice all end here.
  const onClose = useCallback(() => {
    setOpen(false);
    if (opener.current?.isConnected) opener.current.focus();
  }, []);

  const controls = useMemo(() => ({ open }), [open]);
  return (
    <WalletDialogContext.Provider value={controls}>
      {children}
      <dialog ref={dialog} className="wallet-dialog" aria-labelledby={TITLE_ID} onClose={onClose}>
        <div className="wallet-dialog-head">
          <h2 id={TITLE_ID}>Connect a wallet</h2>
          <button type="button" className="dialog-close" aria-label="Close" onClick={close}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        {!isOpen ? null : Choices ? (
          <Choices close={close} />
        ) : (
          <p className="muted" role="status">
            Loading wallets…
          </p>
        )}
      </dialog>
    </WalletDialogContext.Provider>
  );
}
