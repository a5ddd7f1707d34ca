/** The app's own help page (/app/help): one section per topic, linked from every admin page's footer. */
export const help = {
  title: 'Help',
  footer: 'Learn more about {topic}',
  footerGeneral: 'Learn more in the help',
  topics: {
    setup: {
      title: 'Getting started',
      body: 'The setup guide on the dashboard walks you through creating your first program, switching on the loyalty widget in your theme and checking that shoppers see it.',
    },
    programs: {
      title: 'Streaks, challenges and missions',
      body: 'A streak rewards members for coming back period after period, a challenge for reaching a goal within a period, a mission for finishing a list of tasks. Each can have milestones that give rewards on the way.',
    },
    points: {
      title: 'Points and VIP tiers',
      body: 'Members earn points on orders, on signing up, for subscribing to your newsletter, on their birthday, for following your shop on social media, for referring friends and at milestones, and spend them on the rewards you give a cost in points. VIP tiers follow the points a member earned in the tiers’ window: each tier can multiply what its members earn and give a reward on entering it. Coming from another loyalty app, you bring your customers’ balances with a CSV file on the Points page.',
    },
    rewards: {
      title: 'Rewards',
      body: 'A reward is what a member receives for a milestone or for finishing a program: a Shopify discount, a code from codes you upload or codes the app generates, or store credit.',
    },
    earnings: {
      title: 'What your program earns',
      body: 'The dashboard compares the sales of members in your program with members held out of it, so you see the revenue your program adds rather than sales that would have happened anyway.',
    },
    leaderboards: {
      title: 'Leaderboards',
      body: 'A leaderboard ranks the members of one program, by their current or best run, their progress in a challenge period or how often they finished a mission. Shoppers see it as a tab in the widget, named as you choose.',
    },
    members: {
      title: 'Members',
      body: 'Every shopper who takes part is a member. A member’s page shows their progress, their rewards and codes, and links to the customer in Shopify.',
    },
    notifications: {
      title: 'Notifications',
      body: 'A notification rule sends a message when something happens in your program, such as a reached milestone. Pick the moments, how to send and the message; the preview shows it with sample data.',
    },
    emails: {
      title: 'Email templates',
      body: 'An email template holds the subject and the message. Insert details such as the member’s first name from the list next to the message; they are filled in for each member when the email is sent.',
    },
    widget: {
      title: 'Widget and branding',
      body: 'The widget is the loyalty panel shoppers open from a button on your store. Branding sets its colours, the button’s position and its texts; the preview shows the real widget as you edit.',
    },
    webhooks: {
      title: 'Webhooks',
      body: 'Webhooks send your program’s events to another system you run, for example a CRM.',
    },
    dataRequests: {
      title: 'Data requests',
      body: 'When a customer asks for their data or to be erased, Shopify tells the app. This page lists those requests and what the app did.',
    },
    advanced: {
      title: 'All fields',
      body: 'Each editor’s Advanced menu opens every field the loyalty service stores for a record. You rarely need it; the editors cover what shoppers see.',
    },
  },
};
