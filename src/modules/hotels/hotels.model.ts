import { BaseModel } from '../../platform/db/base-model';

export class Hotel extends BaseModel {
  static override tableName = 'hotels';

  id!: string;
  name!: string;
  slug!: string;
  address!: string | null;
  phone!: string | null;
  timezone!: string;
  currency!: string;
  plan!: string;
  is_active!: boolean;
  check_in_time!: string;
  check_out_time!: string;
  created_at!: Date;
}

export type HotelChanges = Partial<
  Pick<Hotel, 'name' | 'address' | 'phone' | 'timezone' | 'currency' | 'check_in_time' | 'check_out_time'>
>;
