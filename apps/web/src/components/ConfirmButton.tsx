import { useEffect, useRef, useState } from 'react';

interface ConfirmButtonProps {
  label: string;
  /** The button's accessible name when the label alone is ambiguous (one per comment). */
  ariaLabel?: string;
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
  className?: string;
}

/**
 * A destructive action in two steps, without a modal: the question replaces the button and takes
 * the focus; Cancelar (or Escape) brings the button back, focused.
 */
export function ConfirmButton({
  label,
  ariaLabel,
  question,
  confirmLabel,
  onConfirm,
  disabled,
  className,
}: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const touched = useRef(false);
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
    else if (touched.current) buttonRef.current?.focus();
  }, [asking]);
  const cancel = () => {
    touched.current = true;
    setAsking(false);
  };

  if (!asking) {
    return (
      <button
        ref={buttonRef}
        type="button"
        className={className}
        aria-label={ariaLabel}
        onClick={() => setAsking(true)}
        disabled={disabled}
      >
        {label}
      </button>
    );
  }
  return (
    <span
      className="confirm"
      role="group"
      aria-label={question}
      onKeyDown={(event) => {
        if (event.key === 'Escape') cancel();
      }}
    >
      <span>{question}</span>
      <button
        ref={confirmRef}
        type="button"
        className="danger"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" onClick={cancel}>
        Cancelar
      </button>
    </span>
  );
}
