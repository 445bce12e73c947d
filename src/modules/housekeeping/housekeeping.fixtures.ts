import type { ModuleFixtures } from '../../platform/fixtures';

/**
 * A checklist template of the seeded category, and a task on the seeded room (assigned to the housekeeper, with the
 * photo) that gets a checklist item from it, and a minibar check with one item consumed.
 */
export const housekeepingFixtures: ModuleFixtures = {
  needs: ['category', 'room', 'staff', 'upload', 'minibarItem'],
  records: {
    checklistTemplate: { paths: ['/api/hotels/:slug/checklist-templates/:id'] },
    task: { paths: ['/api/hotels/:slug/housekeeping/:id'], fields: ['task_id'] },
    checklistItem: { paths: ['/api/hotels/:slug/housekeeping/:id/checklist/:itemId'] },
    consumption: {},
  },
  requests: {
    body: {
      'POST /api/hotels/:slug/housekeeping': {
        base: (r) => ({ room_id: r.room, category: 'housekeeping', assignee_id: r.staff, photos: [r.upload] }),
        control: true,
      },
      'PATCH /api/hotels/:slug/housekeeping/:id': {
        base: (r) => ({ assignee_id: r.staff, photos: [r.upload], resolution_photos: [r.upload] }),
        control: true,
      },
      'PUT /api/hotels/:slug/housekeeping/:id/minibar': {
        base: (r) => ({ items: [{ item_id: r.minibarItem, quantity: 1 }] }),
        control: true,
      },
      'POST /api/hotels/:slug/checklist-templates': {
        base: (r, n) => ({
          name: `Gate checklist ${n}`,
          task_category: 'maintenance',
          room_category_id: r.category,
          items: ['Gate item'],
        }),
        control: true,
      },
      'PATCH /api/hotels/:slug/checklist-templates/:id': {
        base: (r) => ({ room_category_id: r.category }),
        control: true,
      },
    },
  },
  async seed({ request, canary, records }) {
    const template = await request<{ id: string }>('/checklist-templates', {
      body: {
        name: `Checklist ${canary}`,
        task_category: 'housekeeping',
        room_category_id: records.category,
        items: [`Check ${canary}`],
      },
    });
    const task = await request<{ id: string }>('/housekeeping', {
      body: {
        room_id: records.room,
        category: 'housekeeping',
        priority: 'low',
        assignee_id: records.staff,
        notes: `Task ${canary}`,
        photos: [records.upload],
        requires_minibar_check: true,
      },
    });
    const { checklist } = await request<{ checklist: { id: string }[] }>(`/housekeeping/${task.id}`, { method: 'get' });
    if (checklist.length === 0) throw new Error('seeding: the task got no checklist item from the template');
    const [consumption] = await request<{ id: string }[]>(`/housekeeping/${task.id}/minibar`, {
      method: 'put',
      body: { items: [{ item_id: records.minibarItem, quantity: 1 }] },
    });
    return {
      checklistTemplate: template.id,
      task: task.id,
      checklistItem: checklist[0].id,
      consumption: consumption.id,
    };
  },
};
