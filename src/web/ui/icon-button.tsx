import type { ButtonHTMLAttributes } from 'react';
import { Icon, type IconName } from './icons';

/** A button that shows only an icon; `label` is its accessible name. */
export function IconButton({
  icon,
  label,
  className = '',
  ...props
}: { icon: IconName; label: string } & ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button type="button" aria-label={label} className={`rounded p-2 hover:bg-white/10 ${className}`} {...props}>
      <Icon name={icon} />
    </button>
  );
}
