// @vitest-environment jsdom
// The phone field (SPEC sections 3, 5 and 9) as a user meets it: labelled, required asterisk,
// a country picker, digits only, formatted for the US, limited in length, an error slot, and
// controlled by whoever owns the value.
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_PHONE, type PhoneValue } from '../../src/domain/phone';
import { PhoneField } from '../../src/web/ui/phone-field';

function Harness({ onChange, error }: { onChange?: (value: PhoneValue) => void; error?: string }) {
  const [value, setValue] = useState<PhoneValue>(EMPTY_PHONE);
  return (
    <PhoneField
      id="phone"
      label="Phone"
      required
      error={error}
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange?.(next);
      }}
    />
  );
}

describe('PhoneField', () => {
  afterEach(cleanup);

  it('is labelled, required with an asterisk, and starts on the US with an empty number', () => {
    render(<Harness />);
    const input = screen.getByRole('textbox', { name: 'Phone' });
    expect(input).toHaveValue('');
    expect(input).toHaveAttribute('aria-required', 'true');
    expect(input).toHaveAttribute('inputmode', 'numeric');
    expect(input).toHaveAttribute('maxlength', '14');
    const country = screen.getByRole('combobox', { name: 'Phone country' });
    expect(country).toHaveValue('US');
    expect(screen.getAllByRole('option').length).toBeGreaterThanOrEqual(230);
    expect(screen.getByRole('option', { name: 'United States (US) +1' })).toBeInTheDocument();
  });

  it('takes digits only, shows (###) ###-#### and stops at 10 digits', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const input = screen.getByRole('textbox', { name: 'Phone' });
    await user.type(input, '20a1-5550123999');
    expect(input).toHaveValue('(201) 555-0123');
    expect(onChange).toHaveBeenLastCalledWith({ countryCode: 'US', digits: '2015550123' });
    await user.type(input, '{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}');
    expect(input).toHaveValue('(201) 55');
    await user.type(input, '{Backspace}{Backspace}{Backspace}');
    expect(input).toHaveValue('20');
  });

  it('changes country from the keyboard and keeps the number within the new length', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const country = screen.getByRole('combobox', { name: 'Phone country' });
    await user.selectOptions(country, 'GB');
    expect(onChange).toHaveBeenLastCalledWith({ countryCode: 'GB', digits: '' });
    const input = screen.getByRole('textbox', { name: 'Phone' });
    expect(input).toHaveAttribute('maxlength', '12');
    await user.type(input, '07400123456');
    expect(input).toHaveValue('07400 123456');
    await user.selectOptions(country, 'US');
    expect(onChange).toHaveBeenLastCalledWith({ countryCode: 'US', digits: '0740012345' });
  });

  it('shows its error and ties it to the input', () => {
    render(<Harness error="Please enter a valid 10-digit phone number." />);
    const input = screen.getByRole('textbox', { name: 'Phone' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Please enter a valid 10-digit phone number.');
  });
});
