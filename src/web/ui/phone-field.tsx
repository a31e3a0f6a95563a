// SPEC sections 3, 5 and 9: the phone field. A country picker (about 240 countries from
// libphonenumber-js, named by Intl.DisplayNames, default US) beside a numeric input limited to
// the country's national-format length and shown formatted ((###) ###-#### for the US).
// Controlled: the form's machine owns the value; the field only turns keystrokes into values.
import { useMemo, type ChangeEvent } from 'react';
import {
  formatPhoneDigits,
  isPhoneCountry,
  nextPhoneDigits,
  phoneCountries,
  phoneMaxDigits,
  phoneMaxLength,
  type PhoneValue,
} from '../../domain/phone';
import { CONTROL_CLASS, FormField } from './form-field';

export interface PhoneFieldProps {
  readonly id: string;
  readonly label: string;
  readonly value: PhoneValue;
  readonly onChange: (value: PhoneValue) => void;
  readonly required?: boolean;
  readonly disabled?: boolean;
  readonly error?: string | undefined;
  readonly hint?: string;
  readonly className?: string;
}

export const phoneCountryId = (id: string) => `${id}-country`;

export function PhoneField({ id, label, value, onChange, required, disabled, error, hint, className }: PhoneFieldProps) {
  const countries = useMemo(() => phoneCountries(), []);
  const shown = formatPhoneDigits(value);

  const changeCountry = (event: ChangeEvent<HTMLSelectElement>) => {
    const countryCode = event.target.value;
    if (!isPhoneCountry(countryCode)) return;
    onChange({ countryCode, digits: value.digits.slice(0, phoneMaxDigits(countryCode)) });
  };
  const changeNumber = (event: ChangeEvent<HTMLInputElement>) => {
    onChange({ countryCode: value.countryCode, digits: nextPhoneDigits(value, event.target.value) });
  };

  return (
    <FormField
      id={id}
      label={label}
      {...(required ? { required } : {})}
      {...(hint ? { hint } : {})}
      error={error}
      {...(className ? { className } : {})}
    >
      {(control) => (
        <div className="flex gap-2">
          <select
            id={phoneCountryId(id)}
            aria-label={`${label} country`}
            className={`${CONTROL_CLASS} max-w-[11rem] shrink-0`}
            value={value.countryCode}
            onChange={changeCountry}
            disabled={disabled}
          >
            {countries.map((entry) => (
              <option key={entry.countryCode} value={entry.countryCode}>
                {`${entry.country} (${entry.countryCode}) +${entry.callingCode}`}
              </option>
            ))}
          </select>
          <input
            {...control}
            type="tel"
            inputMode="numeric"
            autoComplete="tel-national"
            className={CONTROL_CLASS}
            value={shown}
            maxLength={phoneMaxLength(value.countryCode)}
            onChange={changeNumber}
            disabled={disabled}
          />
        </div>
      )}
    </FormField>
  );
}
