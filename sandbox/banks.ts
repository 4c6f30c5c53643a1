/** Bank directory of GET /masterdata/bank/list: Russian bank names with stable ids. */

export interface Bank {
  id: string;
  name: string;
  /** Service entries exist in the platform's table but are left out of the output. */
  service?: boolean;
}

export const BANKS: readonly Bank[] = [
  { id: "3f8a1c52-6a0e-4d3b-9a51-0c2f7b1e8d01", name: "Сбербанк" },
  { id: "7b2e4d91-1f3a-4c8e-8b62-5d9e0a3c4f02", name: "Т-Банк" },
  { id: "a1c93e07-5b2d-4f6a-9c13-8e7f2d4b6a03", name: "Альфа-Банк" },
  { id: "c4d85f16-2e9b-4a7c-8d24-1f6a3b5c7e04", name: "ВТБ" },
  { id: "e6f07a25-3d8c-4b9e-9f35-2a7b4c6d8f05", name: "Газпромбанк" },
  { id: "08a19b34-4c7d-4e0f-8a46-3b8c5d7e9a06", name: "Райффайзенбанк" },
  { id: "2ab2ac43-5d6e-4f1a-9b57-4c9d6e8fab07", name: "Озон Банк" },
  { id: "4cd3bd52-6e5f-4a2b-8c68-5dae7f9abc08", name: "ПСБ" },
  { id: "6ef4ce61-7f4a-4b3c-9d79-6ebf8aabcd09", name: "Россельхозбанк" },
  { id: "81a5df70-8a3b-4c4d-8e8a-7fc09bbcde10", name: "Совкомбанк" },
  { id: "93b6e08f-9b2c-4d5e-9f9b-80d1acd0ef11", name: "Банк ДОМ.РФ" },
  { id: "a5c7f19e-ac1d-4e6f-8aac-91e2bde1f012", name: "МКБ" },
  { id: "b7d80aad-bd0e-4f7a-9bbd-a2f3cef20113", name: "Банк Уралсиб" },
  { id: "c9e91bbc-ce1f-4a8b-8cce-b304df031214", name: "Почта Банк" },
  { id: "dbfa2ccb-df2a-4b9c-9ddf-c415e0142315", name: "Хоум Банк" },
  { id: "ed0b3dda-e03b-4cad-8ee0-d526f1253416", name: "Ренессанс Банк" },
  { id: "ff1c4ee9-f14c-4dbe-9ff1-e63702364517", name: "ОТП Банк" },
  { id: "112d5ff8-025d-4ecf-8a02-f74813475618", name: "Банк Русский Стандарт" },
  { id: "233e6007-136e-4fd0-9b13-085924586719", name: "МТС Банк" },
  { id: "454f7116-247f-4ae1-8c24-196a3569781a", name: "Банк Санкт-Петербург" },
  { id: "67608225-358a-4bf2-9d35-2a7b467a891b", name: "Ак Барс Банк" },
  { id: "89719334-469b-4c03-8e46-3b8c578b9a1c", name: "Банк Зенит" },
  { id: "ab82a443-57ac-4d14-9f57-4c9d689cab1d", name: "Абсолют Банк" },
  { id: "cd93b552-68bd-4e25-8a68-5dae79adbc1e", name: "Банк Левобережный" },
  { id: "efa4c661-79ce-4f36-9b79-6ebf8abecd1f", name: "Кредит Европа Банк" },
  { id: "12b5d770-8adf-4a47-8c8a-7fc09bcfde20", name: "ЮниКредит Банк" },
  { id: "34c6e87f-9be0-4b58-9d9b-80d1acd0ef21", name: "Ситибанк" },
  { id: "56d7f98e-acf1-4c69-8eac-91e2bde1f022", name: "Экспобанк" },
  { id: "78e80a9d-bd02-4d7a-9fbd-a2f3cef20123", name: "Банк Точка" },
  { id: "9af91bac-ce13-4e8b-8ace-b304df031224", name: "Модульбанк" },
  { id: "bc0a2cbb-df24-4f9c-9bdf-c415e0142325", name: "Яндекс Банк" },
  { id: "de1b3dca-e035-4aad-8ce0-d526f1253426", name: "ВБ Банк" },
  { id: "f02c4ed9-f146-4bbe-9df1-e63702364527", name: "Свой Банк" },
  { id: "123d5fe8-0257-4ccf-8e02-f74813475628", name: "Цифра банк" },
  { id: "344e60f7-1368-4dd0-9f13-085924586729", name: "Банк Авангард" },
  { id: "565f7106-2479-4ee1-8a24-196a3569782a", name: "Транскапиталбанк" },
  { id: "78608215-358a-4ff2-9b35-2a7b467a892b", name: "Новикомбанк" },
  { id: "9a719324-469b-4003-8c46-3b8c578b9a2c", name: "Банк Открытие" },
  { id: "bc82a433-57ac-4114-9d57-4c9d689cab2d", name: "Сургутнефтегазбанк" },
  { id: "de93b542-68bd-4225-8e68-5dae79adbc2e", name: "Альфа-Банк (корпоративный шлюз)", service: true },
  { id: "f0a4c651-79ce-4336-9f79-6ebf8abecd2f", name: "provider_mockup", service: true },
  { id: "03b5d760-8adf-4447-8a8a-7fc09bcfde30", name: "Тестовый банк (служебный)", service: true },
];

/** Legacy synonyms the platform still accepts for some banks (given out by the account manager). */
export const LEGACY_BANK_SYNONYMS: Record<string, string> = {
  "Сбербанк России": "Сбербанк",
  "ПАО Сбербанк": "Сбербанк",
  Тинькофф: "Т-Банк",
  "Тинькофф Банк": "Т-Банк",
  Промсвязьбанк: "ПСБ",
  Райффайзен: "Райффайзенбанк",
};

const PUBLIC_NAMES = new Set(BANKS.filter((bank) => bank.service !== true).map((bank) => bank.name));

/** The public directory: service entries are filtered out on the server side. */
export function publicBanks(): Array<{ id: string; name: string }> {
  return BANKS.filter((bank) => bank.service !== true).map(({ id, name }) => ({ id, name }));
}

export function isKnownBank(name: string): boolean {
  return PUBLIC_NAMES.has(name) || name in LEGACY_BANK_SYNONYMS;
}

export function publicBankNames(): string[] {
  return [...PUBLIC_NAMES];
}
